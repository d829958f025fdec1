import { useEffect, useRef, useState } from 'react';
import { pipelineSocketUrl, reconnectDelay } from '../../lib/socketUrl';
import { parseServerMessage, type ParsedDelta, type ParsedEvent, type ParsedState } from '../../lib/wsMessages';

export type SocketStatus = 'connecting' | 'open' | 'reconnecting';

interface Handlers {
  onDelta: (delta: ParsedDelta) => void;
  onState: (state: ParsedState) => void;
  onEvent?: (event: ParsedEvent) => void;
}

/**
 * Keeps a websocket to `/ws/pipelines/{name}/` open, once `startAfter` (the
 * step after which the first connection asks for stored deltas) is known. After a drop it
 * reconnects with backoff, asking for the steps from the last one seen on
 * (`?after_step=<last step - 1>`): a step's views arrive as separate messages,
 * so the last step may be incomplete; repeated (view, step) pairs are dropped
 * by the change store. A new `run` (the pipeline's run started over) connects
 * afresh, from `startAfter` again.
 */
export function usePipelineSocket(
  pipeline: string,
  handlers: Handlers,
  startAfter: number | null,
  run = 0,
): SocketStatus {
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const latest = useRef(handlers);
  const firstAfter = useRef(startAfter);
  const ready = startAfter !== null;

  // Declared before the connecting effect, so it runs first in the same commit.
  useEffect(() => {
    latest.current = handlers;
    firstAfter.current = startAfter;
  }, [handlers, startAfter]);

  useEffect(() => {
    if (!ready) return;
    let socket: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let lastStep: number | null = null;
    let closed = false;
    let opened = false;

    const connect = () => {
      const afterStep = opened ? Math.max(0, (lastStep ?? 0) - 1) : firstAfter.current;
      const ws = new WebSocket(pipelineSocketUrl(window.location, pipeline, afterStep));
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
          lastStep = lastStep === null ? msg.step : Math.max(lastStep, msg.step);
          latest.current.onDelta(msg);
        } else if (msg.type === 'state') {
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
  }, [pipeline, ready, run]);

  return status;
}
