import { registerSecret } from '../core/api/errors';
import type { SecretStore } from '../core/secrets/secret-store';

/**
 * Secrets kept in this process only. `postdesk web --sandbox` uses it so a demo session never writes
 * to (or needs) the OS keychain; everything is gone when the process exits.
 */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();
  async get(name: string): Promise<string | null> {
    return this.values.get(name) ?? null;
  }
  async set(name: string, value: string): Promise<void> {
    registerSecret(value);
    this.values.set(name, value);
  }
  async delete(name: string): Promise<void> {
    this.values.delete(name);
  }
  async has(name: string): Promise<boolean> {
    return this.values.has(name);
  }
}
