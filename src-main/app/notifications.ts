/**
 * Desktop notifications for what went wrong while nobody was looking: a failed delivery, a failed run,
 * a run missed (while the machine slept, or while Postdesk was not running). A click opens the exact screen through the same deep-link
 * path (and validation) as a link from outside.
 */
import { Notification } from 'electron';
import type { Platform } from '../../src-shared/api';
import type {
  DeliveryEvents,
  AssistantRequest,
  DraftsWaiting,
  FailedDelivery,
  FailedRun,
  InboxEvents,
  Logger,
  MissedRun,
  RunEvents,
  UnconfirmedDelivery,
} from './capabilities';
import { deepLinkFor, type DeepLinkRouter } from './deep-links';
import { DisposableStore, Emitter, type Disposable } from '../core/common/events';
import { safeLine } from '../../src-shared/safe-text';

export type NoticeContent = Readonly<{ title: string; body: string; link: string | null }>;

const PLATFORM_NAMES: Readonly<Record<Platform, string>> = {
  tiktok: 'TikTok',
  instagram: 'Instagram',
  youtube: 'YouTube',
  linkedin: 'LinkedIn',
  x: 'X',
};

const BODY_MAX = 180;

/**
 * Service and agent messages are shown as plain, single-line, bounded text (src-shared/safe-text.ts): line
 * breaks, control characters (an agent's colour codes included) and the bidi controls that reorder text shown
 * escaped (`invoice\u202Egpj.exe` cannot pose as a `.jpg`), cut between graphemes.
 */
export function noticeText(text: string | null | undefined, fallback: string): string {
  return safeLine((text ?? '').trim(), { max: BODY_MAX }) || fallback;
}

function platformName(p: string): string {
  return (PLATFORM_NAMES as Readonly<Record<string, string>>)[p] ?? p;
}

export function deliveryFailedNotice(d: FailedDelivery): NoticeContent {
  return {
    title: `${platformName(d.platform)} delivery failed`,
    body: noticeText(d.error, 'The service gave no reason.'),
    link: deepLinkFor({ kind: 'post', id: d.id }),
  };
}

export function deliveryNotConfirmedNotice(d: UnconfirmedDelivery): NoticeContent {
  const when = new Date(d.scheduledAt);
  const at = Number.isNaN(when.getTime())
    ? d.scheduledAt
    : when.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return {
    title: `${platformName(d.platform)} post not confirmed`,
    body: `It was due ${noticeText(at, 'earlier')}, and the service has not said it was posted.`,
    link: deepLinkFor({ kind: 'post', id: d.id }),
  };
}

export function runFailedNotice(r: FailedRun): NoticeContent {
  return {
    title: `Run failed: ${noticeText(r.automationName, 'automation')}`,
    body: noticeText(r.error, 'No reason was recorded.'),
    link: deepLinkFor({ kind: 'run', id: r.runId }),
  };
}

export function runMissedNotice(m: MissedRun): NoticeContent {
  const when = m.scheduledFor ? new Date(m.scheduledFor) : null;
  const at =
    when === null
      ? null
      : Number.isNaN(when.getTime())
        ? m.scheduledFor
        : when.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  const why = noticeText(m.reason, 'The computer was asleep or Postdesk was not running.');
  return {
    title: `Run missed: ${noticeText(m.automationName, 'automation')}`,
    body: at ? `Due ${noticeText(at, 'earlier')}. ${why}` : why,
    link: m.runId ? deepLinkFor({ kind: 'run', id: m.runId }) : null,
  };
}

/** One notice per run that left drafts: its click opens the inbox filtered to that run. */
export function draftsWaitingNotice(d: DraftsWaiting): NoticeContent {
  return {
    title: `Drafts to review: ${noticeText(d.automationName, 'an automation')}`,
    body:
      d.drafts === 1
        ? 'Its run made a draft. Nothing is published until you approve it.'
        : `Its run made ${d.drafts} drafts. Nothing is published until you approve them.`,
    link: deepLinkFor({ kind: 'inbox', id: d.runId }),
  };
}

/** A request of an AI assistant (`postdesk mcp`): nothing is sent until the person approves it. */
export function assistantRequestNotice(r: AssistantRequest): NoticeContent {
  const words = r.tool.replace(/_/g, ' ');
  return {
    title: 'Your AI assistant asks for approval',
    body: `It wants to ${noticeText(words, 'use a tool')}. Nothing is sent until you approve it in the Inbox.`,
    link: null,
  };
}

/**
 * A notification body as the notification server reads it. Linux servers that announce `body-markup` render a
 * subset of HTML (`<b>`, `<a href>`, `<img>`) in the body, so text from the service is escaped there; other
 * systems show the body as it is, where escaping would print `&amp;`.
 */
export function noticeBody(text: string, platform: string = process.platform): string {
  if (platform !== 'linux') return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export type NotificationServiceDeps = Readonly<{
  router: Pick<DeepLinkRouter, 'open'>;
  /** Brings the window up (for notices with no link of their own). */
  reveal: () => void;
  log: Logger;
  /** At most this many notifications a minute; beyond that they only count towards the tray. */
  maxPerMinute?: number;
  now?: () => number;
  /** Which system shows the notifications (default: this one): decides whether the body is escaped. */
  platform?: string;
}>;

export class NotificationService implements Disposable {
  private unseenCount = 0;
  private readonly shownAt: number[] = [];
  /** Electron drops click handlers of notifications that were garbage-collected: keep them alive. */
  private readonly live = new Set<Notification>();
  private readonly didChangeUnseen = new Emitter<number>();
  readonly onDidChangeUnseen = this.didChangeUnseen.event;
  private readonly store = new DisposableStore();

  constructor(private readonly deps: NotificationServiceDeps) {}

  unseen(): number {
    return this.unseenCount;
  }

  /** The user opened the window: what we notified has been seen. */
  markSeen(): void {
    if (this.unseenCount === 0) return;
    this.unseenCount = 0;
    this.didChangeUnseen.fire(0);
  }

  deliveryFailed(d: FailedDelivery): void {
    this.notify(deliveryFailedNotice(d));
  }

  runFailed(r: FailedRun): void {
    this.notify(runFailedNotice(r));
  }

  runMissed(m: MissedRun): void {
    this.notify(runMissedNotice(m));
  }

  /** An automation is due soon while the computer goes to sleep: not a failure, no link of its own. */
  dueSoon(n: Readonly<{ title: string; body: string }>): void {
    this.notify(
      {
        title: noticeText(n.title, 'An automation is due soon'),
        body: noticeText(n.body, 'An automation is due soon.'),
        link: null,
      },
      { counts: false },
    );
  }

  draftsWaiting(d: DraftsWaiting): void {
    this.notify(draftsWaitingNotice(d), { counts: false });
  }

  bind(
    sources: Readonly<{
      runs: RunEvents;
      deliveries?: DeliveryEvents | undefined;
      inbox?: InboxEvents | undefined;
    }>,
  ): Disposable {
    const store = new DisposableStore();
    if (sources.inbox) store.add(sources.inbox.onDidDraftRun((d) => this.draftsWaiting(d)));
    const proposed = sources.inbox?.onDidPropose;
    if (proposed) store.add(proposed((r) => this.notify(assistantRequestNotice(r), { counts: false })));
    store.add(sources.runs.onDidFailRun((r) => this.runFailed(r)));
    store.add(sources.runs.onDidMissRun((m) => this.runMissed(m)));
    if (sources.deliveries) store.add(sources.deliveries.onDidFailDelivery((d) => this.deliveryFailed(d)));
    const notConfirmed = sources.deliveries?.onDidNotConfirm;
    if (notConfirmed) store.add(notConfirmed((d) => this.notify(deliveryNotConfirmedNotice(d))));
    return this.store.add(store);
  }

  /** `counts: false`: not a failure, so the tray's attention state and failure count are left alone. */
  private notify(content: NoticeContent, opts: { counts: boolean } = { counts: true }): void {
    if (opts.counts) {
      this.unseenCount += 1;
      this.didChangeUnseen.fire(this.unseenCount);
    }

    const now = (this.deps.now ?? Date.now)();
    while (this.shownAt.length > 0 && now - (this.shownAt[0] as number) > 60_000) this.shownAt.shift();
    if (this.shownAt.length >= (this.deps.maxPerMinute ?? 5)) {
      this.deps.log.info('notification held back (too many this minute); the tray shows the count');
      return;
    }
    if (!Notification.isSupported()) return;
    this.shownAt.push(now);

    // The one place a notification is made: whatever built the content, it is shown safe and bounded.
    const n = new Notification({
      title: safeLine(content.title, { max: BODY_MAX }),
      body: noticeBody(safeLine(content.body, { max: BODY_MAX * 2 }), this.deps.platform),
    });
    this.live.add(n);
    n.on('click', () => {
      this.live.delete(n);
      if (content.link === null || !this.deps.router.open(content.link, 'notification')) this.deps.reveal();
    });
    n.on('close', () => this.live.delete(n));
    n.show();
  }

  dispose(): void {
    this.store.dispose();
    this.didChangeUnseen.dispose();
    for (const n of this.live) n.close();
    this.live.clear();
  }
}
