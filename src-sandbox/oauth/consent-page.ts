import { SafeHtml, html } from './html';

/** The authorization request, carried through the consent form as hidden fields. */
export type ConsentFields = Readonly<Record<string, string>>;

export interface ConsentView {
  clientName: string | null;
  clientId: string;
  /** Where the owner is sent back: `host[:port]` of the redirect URI. */
  redirectHost: string;
  loopback: boolean;
  fields: ConsentFields;
  /** Why the last try failed (a key that was not accepted), shown above the form. */
  error?: string;
}

/** The page's style: the app's tokens (src-renderer/src/styles/tokens.css), both themes, no script. */
const STYLE = `
:root { color-scheme: light dark;
  --bg: #f7f7f8; --bg-elevated: #ffffff; --border: #e2e2e6; --border-strong: #cfcfd6; --text: #18181b;
  --text-muted: #5f5f6b; --accent: #5b4bdb; --accent-hover: #4a3bc7; --accent-text: #ffffff; --focus: #7c6cf0;
  --danger: #c0262d; --danger-soft: #fde8e8; --bg-hover: #ececef; --shadow: 0 4px 16px rgb(16 16 24 / 8%); }
@media (prefers-color-scheme: dark) { :root {
  --bg: #111114; --bg-elevated: #1a1a1f; --border: #2a2a32; --border-strong: #3a3a45; --text: #ececf1;
  --text-muted: #a3a3b0; --accent: #9a8cf8; --accent-hover: #ab9ff9; --accent-text: #0f0d1f; --focus: #a597ff;
  --danger: #f16a6f; --danger-soft: #3a1619; --bg-hover: #24242b; --shadow: 0 4px 16px rgb(0 0 0 / 45%); } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 24px; background: var(--bg);
  color: var(--text); font: 400 14px/1.5 Inter, system-ui, -apple-system, 'Segoe UI', sans-serif; }
main { width: 100%; max-width: 440px; background: var(--bg-elevated); border: 1px solid var(--border);
  border-radius: 12px; box-shadow: var(--shadow); padding: 24px; }
.brand { margin: 0 0 16px; font-size: 12px; font-weight: 600; letter-spacing: .04em; text-transform: uppercase;
  color: var(--text-muted); }
h1 { margin: 0 0 8px; font-size: 20px; font-weight: 600; line-height: 1.3; overflow-wrap: anywhere; }
p { margin: 0 0 12px; color: var(--text-muted); }
ul { margin: 0 0 16px; padding-left: 20px; color: var(--text-muted); }
.where { padding: 12px; border: 1px solid var(--border); border-radius: 8px; margin: 0 0 16px; }
.where p:last-child { margin: 0; }
.where strong { color: var(--text); font-family: ui-monospace, 'SF Mono', Menlo, Consolas, monospace;
  overflow-wrap: anywhere; }
label { display: block; font-weight: 600; margin: 0 0 4px; color: var(--text); }
.hint { font-size: 12px; margin: 4px 0 16px; }
input[type=password] { width: 100%; padding: 8px 12px; font: inherit; color: var(--text);
  background: var(--bg); border: 1px solid var(--border-strong); border-radius: 6px; }
.error { padding: 8px 12px; border-radius: 6px; background: var(--danger-soft); color: var(--danger);
  margin: 0 0 16px; }
.actions { display: flex; gap: 8px; justify-content: flex-end; }
button { font: inherit; font-weight: 600; padding: 8px 16px; border-radius: 6px; cursor: pointer;
  border: 1px solid var(--border-strong); background: var(--bg-elevated); color: var(--text); }
button:hover { background: var(--bg-hover); }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-text); }
button.primary:hover { background: var(--accent-hover); }
:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
`;

/** A constant of this file, so trusted as markup. */
const STYLE_HTML = new SafeHtml(STYLE);

function page(title: string, nonce: string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        <style nonce="${nonce}">
          ${STYLE_HTML}
        </style>
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html>`.text;
}

/** The consent page: names the client and where it sends the owner back; the owner signs in with their key. */
export function consentPage(view: ConsentView, nonce: string): string {
  const name = view.clientName ?? 'An unnamed app';
  const hidden = Object.entries(view.fields).map(
    ([key, value]) => html`<input type="hidden" name="${key}" value="${value}" />`,
  );
  const body = html` <p class="brand">Postdesk sandbox</p>
    <h1>Allow ${name} to use your Postdesk account?</h1>
    <p>${name} asks to use the Postdesk MCP server as you. It will be able to:</p>
    <ul>
      <li>read your accounts, posts, articles, analytics and automations;</li>
      <li>create, schedule, update and delete posts, articles and automations.</li>
    </ul>
    <div class="where">
      <p>
        After you answer, you go back to
        ${view.loopback ? 'an app on this computer at ' : ''}<strong>${view.redirectHost}</strong>.
      </p>
      <p class="hint">Client id: ${view.clientId}</p>
    </div>
    ${view.error ? html`<p class="error" role="alert">${view.error}</p>` : null}
    <form method="post" action="/oauth/authorize">
      ${hidden}
      <label for="api_key">Your API key</label>
      <input
        id="api_key"
        name="api_key"
        type="password"
        autocomplete="off"
        spellcheck="false"
        aria-describedby="api_key_hint"
        ${view.error ? html` aria-invalid="true"` : null}
      />
      <p class="hint" id="api_key_hint">
        Signing in with your key lets ${name} act for you until the key is revoked or expires.
      </p>
      <div class="actions">
        <button type="submit" name="decision" value="deny">Deny</button>
        <button type="submit" name="decision" value="allow" class="primary">Allow</button>
      </div>
    </form>`;
  return page(`Allow ${name}? · Postdesk sandbox`, nonce, body);
}

/** An authorization request that cannot go back to its client (unknown client, redirect URI not its own). */
export function refusalPage(message: string, nonce: string): string {
  const body = html` <p class="brand">Postdesk sandbox</p>
    <h1>This sign-in request cannot go on</h1>
    <p class="error" role="alert">${message}</p>
    <p>Go back to the app you came from and connect again.</p>`;
  return page('Sign-in request refused · Postdesk sandbox', nonce, body);
}
