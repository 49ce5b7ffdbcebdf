import type { Account, AccountRole } from '@talkbooth/protocol';
import { createContext, useContext } from 'react';

export interface AccountState {
  account: Account;
  /** Forgets the account (after sign-out, or when the session ended). */
  signedOut: () => void;
}

export const AccountContext = createContext<AccountState | null>(null);

/** The signed-in account; only inside the console shell. */
export function useAccount(): AccountState {
  const state = useContext(AccountContext);
  if (state === null) throw new Error('useAccount outside the console shell');
  return state;
}

const RANK: Record<AccountRole, number> = { viewer: 0, admin: 1, owner: 2 };

/** Whether the signed-in role is at least `least` (viewers read, admins change, owners run the team). */
export function useCan(least: AccountRole): boolean {
  return RANK[useAccount().account.role] >= RANK[least];
}
