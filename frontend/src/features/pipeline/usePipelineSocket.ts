import { useEffect, useRef, useState } from 'react';
import { pipelineSocketUrl, reconnectDelay } from '../../lib/socketUrl';
import { parseServerMessage, type ParsedDelta, type ParsedState } from '../../lib/wsMessages';

export type SocketStatus = 'connecting' | 'open' | 'reconnecting';

interface Handlers {
  onDelta: (delta: ParsedDelta) => void;
  onState: (state: ParsedState) => void;
}

/**
 * Keeps a websocket to `/ws/pipelines/{name}/` open. After a drop it
 * reconnects with backoff, asking for `?after_step=<last step seen>` so the
 * server replays what was missed.
 */
export function usePipelineSocket(pipeline: string, handlers: Handlers): SocketStatus {
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const latest = useRef(handlers);

  useEffect(() => {
    latest.current = handlers;
  }, [handlers]);

  useEffect(() => {
    let socket: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let lastStep: number | null = null;
    let closed = false;

    const connect = () => {
      const ws = new WebSocket(pipelineSocketUrl(window.location, pipeline, lastStep));
      socket = ws;
      ws.onopen = () => {
        attempt = 0;
        setStatus('open');
      };
      ws.onmessage = (event: MessageEvent) => {
        const msg = parseServerMessage(event.data);
        if (msg === null) return;
        if (msg.type === 'delta') {
          lastStep = lastStep === null ? msg.step : Math.max(lastStep, msg.step);
          latest.current.onDelta(msg);
        } else {
          latest.current.onState(msg);
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
  }, [pipeline]);

  return status;
}
