import { useEffect, useRef, useState } from 'react';
import type { Ref } from '../../lib/refs';
import { RunTracker } from '../../lib/runs';
import { pipelineSocketUrl, reconnectDelay } from '../../lib/socketUrl';
import { parseServerMessage, type ParsedDelta, type ParsedEvent, type ParsedState } from '../../lib/wsMessages';

export type SocketStatus = 'connecting' | 'open' | 'reconnecting';

interface Handlers {
  onDelta: (delta: ParsedDelta) => void;
  onState: (state: ParsedState) => void;
  onEvent?: (event: ParsedEvent) => void;
  /**
   * A new run of the pipeline began (a deploy with reset_state, from this page or
   * anywhere else): its steps are numbered from 1 again, and what the page shows
   * of the run before is void. Deltas that follow are the new run's.
   */
  onReset?: (run: number) => void;
}

/**
 * Keeps a websocket to `/ws/pipelines/{name}/` open, once `startAfter` (the
 * step after which the first connection asks for stored deltas) is known. After a drop it
 * reconnects with backoff, asking for the steps from the last one seen on
 * (`?after_step=<last step - 1>&run=<its run>`): a step's views arrive as separate
 * messages, so the last step may be incomplete; repeated (view, step) pairs are
 * dropped by the change store. `startRun` is the run `startAfter` counts in.
 *
 * The server says when the pipeline's run starts over (a `reset` message, also sent
 * on connect when the run asked for is over): the socket then counts from step 0
 * of the new run and calls `onReset`; a delta of an older run is dropped.
 */
export function usePipelineSocket(
  pipeline: Ref,
  handlers: Handlers,
  startAfter: number | null,
  startRun: number | null = null,
): SocketStatus {
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const latest = useRef(handlers);
  const firstAfter = useRef(startAfter);
  const firstRun = useRef(startRun);
  const ready = startAfter !== null;
  const { name, team } = pipeline;

  // Declared before the connecting effect, so it runs first in the same commit.
  useEffect(() => {
    latest.current = handlers;
    firstAfter.current = startAfter;
    firstRun.current = startRun;
  }, [handlers, startAfter, startRun]);

  useEffect(() => {
    if (!ready) return;
    let socket: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let lastStep: number | null = null;
    const runs = new RunTracker(firstRun.current);
    let closed = false;
    let opened = false;

    /** Whether a message of run `next` is to be taken; a later run starts the page over. */
    const follow = (next: number | undefined): boolean => {
      const verdict = runs.see(next);
      if (verdict === 'reset' && next !== undefined) {
        lastStep = null;
        latest.current.onReset?.(next);
      }
      return verdict !== 'drop';
    };

    const connect = () => {
      const afterStep = opened ? Math.max(0, (lastStep ?? 0) - 1) : firstAfter.current;
      const ws = new WebSocket(pipelineSocketUrl(window.location, name, afterStep, { run: runs.run, team }));
      socket = ws;
      ws.onopen = () => {
        opened = true;
        attempt = 0;
        setStatus('open');
      };
      ws.onmessage = (event: MessageEvent) => {
        const msg = parseServerMessage(event.data);
        if (msg === null) return;
        if (msg.type === 'delta') {
          if (!follow(msg.run)) return;
          lastStep = lastStep === null ? msg.step : Math.max(lastStep, msg.step);
          latest.current.onDelta(msg);
        } else if (msg.type === 'reset') {
          follow(msg.run);
        } else if (msg.type === 'state') {
          follow(msg.run);
          latest.current.onState(msg);
        } else {
          latest.current.onEvent?.(msg);
        }
      };
      ws.onclose = () => {
        if (closed) return;
        setStatus('reconnecting');
        timer = setTimeout(connect, reconnectDelay(attempt));
        attempt += 1;
      };
    };

    connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      socket?.close();
    };
  }, [name, team, ready]);

  return status;
}
