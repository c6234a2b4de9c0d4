import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ANONYMOUS_NAME, buildUser, seedUsers, type NewUserInput } from './seed';
import type { ServiceUser, StoredUser, UserLifecycleState } from './types';
import { UserRoster } from './user-roster';

export interface IssuedToken {
  /** sha256 of the token: the sandbox never keeps (or persists) a usable token. */
  hash: string;
  scopes: string[];
  createdAtMs: number;
  expiresAtMs: number;
}

/** What happened to a uid that no longer finds an active user. */
export interface Tombstone {
  state: 'anonymized' | 'deleted';
  userId: number;
}

/** Everything that survives a restart when a data file is used. */
export interface StateSnapshot {
  version: 1;
  users: StoredUser[];
  tombstones: Array<[string, Tombstone]>;
  tokens: IssuedToken[];
  nextUserId: number;
  nextContributionId: number;
}

export interface UserInspection {
  state: UserLifecycleState;
  user: ServiceUser | null;
  sessionCount: number;
  messagesCount: number;
  votesCount: number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function seedSnapshot(seed: number, userCount: number): StateSnapshot {
  const users = seedUsers(seed, userCount);
  const lastContribution = users.flatMap((u) => [...u.messageIds, ...u.voteIds]).reduce((a, b) => Math.max(a, b), 0);
  return { version: 1, users, tombstones: [], tokens: [], nextUserId: userCount + 1, nextContributionId: lastContribution + 1 };
}

/** The service's data: users, what became of erased uids, issued tokens. Every change calls onChange. */
export class SandboxState {
  private users = new UserRoster([]);
  private tombstones = new Map<string, Tombstone>();
  private tokens = new Map<string, IssuedToken>();
  /** Every access token issued since start, in clear, in memory only (never in a snapshot): for leak checks in tests. */
  private issuedInClear: string[] = [];
  private nextUserId = 1;
  private contributionIds = { next: 1 };

  constructor(
    snapshot: StateSnapshot,
    /** Without it (no data file) no snapshot is built: one per change would make each erasure cost as much as all the tombstones. */
    private readonly onChange?: (snapshot: StateSnapshot) => void,
    /** The sandbox's clock: dates of new sessions and users. */
    private readonly now: () => number = Date.now,
  ) {
    this.load(snapshot);
  }

  /** Replaces the users (e.g. back to the seed); issued tokens stay valid. */
  replaceUsers(snapshot: StateSnapshot): void {
    this.load({ ...snapshot, tokens: [...this.tokens.values()] });
    this.changed();
  }

  snapshot(): StateSnapshot {
    return {
      version: 1,
      users: [...this.users.inOrder()],
      tombstones: [...this.tombstones.entries()],
      tokens: [...this.tokens.values()],
      nextUserId: this.nextUserId,
      nextContributionId: this.contributionIds.next,
    };
  }

  /** All users still on record (active and anonymised), in id order. */
  allUsers(): readonly StoredUser[] {
    return this.users.inOrder();
  }

  findActive(uid: string): StoredUser | undefined {
    return this.users.active(uid);
  }

  anonymize(uid: string): boolean {
    const user = this.users.active(uid);
    if (!user) return false;
    // The uid itself is erased; contributions, counts and sessions stay.
    Object.assign(user.record, {
      uid: null, full_name: ANONYMOUS_NAME, email: null, image_url: null, description: null,
      age: null, city: null, occupation: null, interests: null,
    } satisfies Partial<ServiceUser>);
    user.state = 'anonymized';
    this.users.retire(uid);
    this.tombstones.set(uid, { state: 'anonymized', userId: user.record.id });
    this.changed();
    return true;
  }

  delete(uid: string): boolean {
    const user = this.users.active(uid);
    if (!user) return false;
    // The record, its contributions and its sessions all go.
    this.users.remove(user, uid);
    this.tombstones.set(uid, { state: 'deleted', userId: user.record.id });
    this.changed();
    return true;
  }

  /** Ends every session of the active user with this uid; returns how many ended. */
  logout(uid: string): number {
    const user = this.users.active(uid);
    if (!user || user.sessions.length === 0) return 0;
    const ended = user.sessions.length;
    user.sessions = [];
    this.changed();
    return ended;
  }

  /** Opens a session (as if the user signed in); undefined when no active user has this uid. */
  login(uid: string): number | undefined {
    const user = this.users.active(uid);
    if (!user) return undefined;
    user.sessions.push({ id: randomUUID(), createdAt: new Date(this.now()).toISOString() });
    this.changed();
    return user.sessions.length;
  }

  create(input: NewUserInput): StoredUser | undefined {
    if (this.users.active(input.uid)) return undefined;
    const user = buildUser(input, this.nextUserId++, this.contributionIds, new Date(this.now()));
    this.users.add(user, input.uid);
    this.tombstones.delete(input.uid);
    this.changed();
    return user;
  }

  inspect(uid: string): UserInspection | undefined {
    const active = this.users.active(uid);
    if (active) return describe('active', active);
    const tombstone = this.tombstones.get(uid);
    if (!tombstone) return undefined;
    const kept = this.users.inOrder().find((u) => u.record.id === tombstone.userId);
    if (tombstone.state === 'anonymized' && kept) return describe('anonymized', kept);
    return { state: 'deleted', user: null, sessionCount: 0, messagesCount: 0, votesCount: 0 };
  }

  issueToken(scopes: string[], ttlSeconds: number, now: number): { token: string; createdAtMs: number } {
    const token = randomBytes(32).toString('base64url');
    const issued: IssuedToken = { hash: hashToken(token), scopes, createdAtMs: now, expiresAtMs: now + ttlSeconds * 1000 };
    this.pruneExpiredTokens(now);
    this.tokens.set(issued.hash, issued);
    this.issuedInClear.push(token);
    this.changed();
    return { token, createdAtMs: now };
  }

  issuedTokens(): string[] {
    return [...this.issuedInClear];
  }

  findToken(token: string): IssuedToken | undefined {
    return this.tokens.get(hashToken(token));
  }

  private pruneExpiredTokens(now: number): void {
    // Expired tokens are kept for a day so that they still answer "expired" rather than "invalid".
    for (const [hash, issued] of this.tokens) if (issued.expiresAtMs + 86_400_000 < now) this.tokens.delete(hash);
  }

  private load(snapshot: StateSnapshot): void {
    this.users = new UserRoster(snapshot.users.map((u) => structuredClone(u)));
    this.tombstones = new Map(snapshot.tombstones);
    this.tokens = new Map(snapshot.tokens.map((t) => [t.hash, t]));
    this.nextUserId = snapshot.nextUserId;
    this.contributionIds = { next: snapshot.nextContributionId };
  }

  private changed(): void {
    if (this.onChange) this.onChange(this.snapshot());
  }
}

function describe(state: 'active' | 'anonymized', user: StoredUser): UserInspection {
  return {
    state,
    user: user.record,
    sessionCount: user.sessions.length,
    messagesCount: user.messageIds.length,
    votesCount: user.voteIds.length,
  };
}
