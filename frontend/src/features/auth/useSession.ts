import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../api/client';
import { api } from '../../api/endpoints';
import type { User } from '../../api/types';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; error: string | null }
  | { status: 'signed-in'; user: User };

export interface SessionControl {
  session: SessionState;
  signIn: (username: string, password: string) => Promise<void>;
  signOut: () => Promise<void>;
}

/** Who is signed in. Loading the session also gives the page its CSRF cookie. */
export function useSession(): SessionControl {
  const [session, setSession] = useState<SessionState>({ status: 'loading' });

  useEffect(() => {
    let live = true;
    api.session().then(
      (s) => {
        if (live) setSession(s.user ? { status: 'signed-in', user: s.user } : { status: 'signed-out', error: null });
      },
      (err: unknown) => {
        if (live) setSession({ status: 'signed-out', error: errorMessage(err) });
      },
    );
    return () => {
      live = false;
    };
  }, []);

  const signIn = useCallback(async (username: string, password: string) => {
    try {
      const s = await api.login(username, password);
      setSession(s.user ? { status: 'signed-in', user: s.user } : { status: 'signed-out', error: null });
    } catch (err: unknown) {
      setSession({ status: 'signed-out', error: errorMessage(err) });
    }
  }, []);

  const signOut = useCallback(async () => {
    await api.logout().catch(() => undefined);
    setSession({ status: 'signed-out', error: null });
  }, []);

  return { session, signIn, signOut };
}
