import { useCallback } from 'react';
import { useClientConfig } from './client-config';
import { useLocation } from 'wouter';

/**
 * Where a talk home URL leads: a path on this site goes through the router, anything else
 * (another origin) is a full page load.
 */
export function resolveTalkHome(
  url: string,
  origin: string,
): { kind: 'route'; path: string } | { kind: 'external'; href: string } {
  const trimmed = url.trim() === '' ? '/' : url.trim();
  let target: URL;
  try {
    target = new URL(trimmed, origin);
  } catch {
    return { kind: 'route', path: '/' };
  }
  if (target.origin === origin) {
    return { kind: 'route', path: `${target.pathname}${target.search}${target.hash}` };
  }
  return { kind: 'external', href: target.href };
}

/** Sends the browser to the talk home page (`talkHomeUrl` from the client config). */
export function useGoToTalkHome(): () => void {
  const { talkHomeUrl } = useClientConfig();
  const [, navigate] = useLocation();
  return useCallback(() => {
    const target = resolveTalkHome(talkHomeUrl, window.location.origin);
    if (target.kind === 'route') {
      void navigate(target.path);
    } else {
      window.location.assign(target.href);
    }
  }, [talkHomeUrl, navigate]);
}
