import type { StoredUser } from './types';

/**
 * The users on record in list order, and the active ones by uid. Adding, retiring (anonymising) and
 * removing (deleting) a user cost O(1): a 100,000-user sandbox must serve erasures as fast as a small one.
 * The ordered array the list route pages through is rebuilt at most once after removals, when next read.
 */
export class UserRoster {
  /** A Set keeps insertion order and deletes in O(1). */
  #onRecord = new Set<StoredUser>();
  #activeByUid = new Map<string, StoredUser>();
  #inOrder: StoredUser[] | undefined;

  constructor(users: readonly StoredUser[]) {
    for (const user of users) this.#onRecord.add(user);
    // As before: a later active user with the same uid wins.
    for (const user of users) if (user.state === 'active' && user.record.uid !== null) this.#activeByUid.set(user.record.uid, user);
  }

  /** In the order the users were added (id order): the array is shared until the next removal, never to be changed by the caller. */
  inOrder(): readonly StoredUser[] {
    this.#inOrder ??= [...this.#onRecord];
    return this.#inOrder;
  }

  active(uid: string): StoredUser | undefined {
    return this.#activeByUid.get(uid);
  }

  /** Appended at the end of the list, active under its uid. */
  add(user: StoredUser, uid: string): void {
    this.#onRecord.add(user);
    this.#activeByUid.set(uid, user);
    this.#inOrder?.push(user);
  }

  /** The uid no longer finds the user, who stays on record (anonymised). */
  retire(uid: string): void {
    this.#activeByUid.delete(uid);
  }

  /** Off the record and off the list. */
  remove(user: StoredUser, uid: string): void {
    this.#onRecord.delete(user);
    this.#activeByUid.delete(uid);
    this.#inOrder = undefined;
  }
}
