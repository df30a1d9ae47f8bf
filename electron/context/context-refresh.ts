import type { GoogleAccess, SlackAccess } from '../connections/access';
import { summarize, type ContactObservation, type ContactsIndex } from './contacts-index';
import { calendarObservations, mailObservations, slackObservations } from './contacts-sources';
import type { RecentMail } from './recent-mail';
import { slackDmObservations } from './slack-dms';
import { WorkerUnavailable, type IndexWorker } from './index-worker-client';
import { inSlices } from './time-slices';
import type { UpcomingEvents } from './upcoming-events';

/** Contacts written per transaction: one step of a time slice (see time-slices.ts). */
export const OBSERVE_CHUNK = 20;
/** Contacts from which a merge goes to the index worker: fewer are a few slices here. */
export const WORKER_MIN_CONTACTS = 500;

export interface RefreshDeps {
  contacts: ContactsIndex;
  /** Writes the contacts off the main thread; without one (or once it fails), in time slices here. */
  worker: IndexWorker | null;
  recentMail: RecentMail;
  /** The person opted in to finding recent mail by meaning (Settings → Data); off, none is kept. */
  keepsRecentMail: () => boolean;
  upcoming: UpcomingEvents;
  google: GoogleAccess;
  slack: SlackAccess;
  isUsable: (integration: 'google' | 'slack') => boolean;
  now: () => Date;
  /** The person's time zone (Settings, else the machine's): the day an all-day event is today in. */
  timezone: () => string;
  logError: (message: string, error: unknown) => void;
}

export interface RefreshReport {
  observed: number;
  /** The sources that could not be read this time; the index keeps what it had from them. */
  failed: string[];
}

/**
 * One pass over the connected accounts. A source that fails is named and skipped: the index keeps what it
 * knew, and the next pass tries again. Contacts are written by the index worker, or here in time slices.
 */
export async function refreshContext(deps: RefreshDeps, signal: AbortSignal): Promise<RefreshReport> {
  const failed: string[] = [];
  let observed = 0;
  const write = async (observations: ContactObservation[]): Promise<void> => {
    const contacts = summarize(observations);
    observed += observations.length;
    if (signal.aborted) return;
    if (deps.worker?.isAvailable && contacts.length >= WORKER_MIN_CONTACTS) {
      try {
        await deps.worker.merge(contacts, deps.contacts.maxContacts, signal);
        deps.contacts.recount();
        return;
      } catch (error) {
        // It stopped mid-way: merging is idempotent, so what it wrote is merged again here, the same.
        if (!(error instanceof WorkerUnavailable)) throw error;
      }
    }
    let index = 0;
    await inSlices(() => {
      deps.contacts.merge(contacts.slice(index, index + OBSERVE_CHUNK));
      index += OBSERVE_CHUNK;
      return index < contacts.length;
    }, signal);
  };
  const attempt = async (source: string, work: () => Promise<void>): Promise<void> => {
    // Stopped (Deputy closing, the index cleared), a pass reads no more sources: their stores may be closed.
    if (signal.aborted) return;
    try {
      await work();
    } catch (error) {
      if (signal.aborted) return;
      failed.push(source);
      deps.logError(`refreshing contacts from ${source} failed`, error);
    }
  };
  if (deps.isUsable('google')) {
    await attempt('Gmail', async () => {
      const { observations, received } = await mailObservations(deps.google, deps.now, signal);
      await write(observations);
      if (signal.aborted) return;
      if (deps.keepsRecentMail()) deps.recentMail.replace(received);
      else deps.recentMail.clear();
    });
    await attempt('Google Calendar', async () => {
      const { observations, upcoming } = await calendarObservations(
        deps.google,
        deps.now,
        signal,
        deps.timezone(),
      );
      await write(observations);
      if (!signal.aborted) deps.upcoming.replace(upcoming);
    });
  } else {
    // Disconnected, the calendar's events are no longer the person's next events: none are told to a run.
    deps.upcoming.replace([]);
  }
  if (!signal.aborted && deps.isUsable('slack')) {
    await attempt('Slack', async () => write(await slackObservations(deps.slack, deps.now)));
    // Apart, so a sign-in from before DMs were read (no im:read) still refreshes the workspace's members.
    await attempt('Slack direct messages', async () => write(await slackDmObservations(deps.slack)));
  }
  return { observed, failed };
}
