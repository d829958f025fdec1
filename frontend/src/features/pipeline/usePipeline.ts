import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from '../../api/endpoints';
import { errorMessage } from '../../api/client';
import type { Pipeline, PipelineAction, PipelineState } from '../../api/types';
import { resetOffer as offerFor, type ResetOffer } from '../../lib/deploy';
import { teamsToChoose, type Ref } from '../../lib/refs';
import { actionTarget, needsPolling, pollDelay } from '../../lib/pipelineState';

/** Give up polling a pipeline that never settles after this long. */
const POLL_LIMIT_MS = 10 * 60_000;

export interface PipelineControl {
  pipeline: Pipeline | null;
  loadError: string | null;
  /** Several of the user's teams have a pipeline of this name and the ref names none: theirs. */
  loadTeams: string[] | null;
  /** The pipeline to address calls to: its name and, once loaded, its team. */
  ref: Ref;
  /** The action whose request is in flight, if any. */
  busy: PipelineAction | 'deploy' | null;
  actionError: string | null;
  act: (action: PipelineAction) => void;
  /** Moves a stopped pipeline to its program's latest version; `resetState` starts its run over. */
  deploy: (resetState?: boolean) => void;
  /** Set when a deploy was refused because the pipeline's state no longer fits: a reset would do it. */
  resetOffer: ResetOffer | null;
  /** Forget the offer (the user kept the state). */
  dismissResetOffer: () => void;
  /** Takes a pipeline a call answered (e.g. after its settings were saved). */
  replace: (pipeline: Pipeline) => void;
  /** A state pushed by the websocket. */
  applyState: (state: PipelineState, error: string | null) => void;
  /** A delta of this step arrived: the pipeline has run at least this far. */
  noteStep: (step: number) => void;
  /** The server said a new run began (a deploy with reset_state): no step of it yet. */
  noteReset: (run: number) => void;
}

/**
 * Loads a pipeline and follows its state: after an action it polls
 * `GET /pipelines/{name}` until the action's target (or a failure) is reached,
 * and it takes websocket state messages as they come. `ref` is the name the page
 * was opened with (and its team, if the address says); calls go to the loaded
 * pipeline's team.
 */
export function usePipeline(ref: Ref): PipelineControl {
  const { name } = ref;
  const [pipeline, setPipeline] = useState<Pipeline | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loadTeams, setLoadTeams] = useState<string[] | null>(null);
  const team = pipeline?.team ?? ref.team;
  const address = useMemo(() => ({ name, team }), [name, team]);
  const [target, setTarget] = useState<PipelineState | null>(null);
  const [busy, setBusy] = useState<PipelineAction | 'deploy' | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [resetOffer, setResetOffer] = useState<ResetOffer | null>(null);

  const receive = useCallback((p: Pipeline) => {
    setPipeline(p);
    setTarget((t) => (t !== null && (p.state === t || p.state === 'failed') ? null : t));
  }, []);

  const first = ref.team;
  useEffect(() => {
    let cancelled = false;
    api.getPipeline({ name, team: first }).then(
      (p) => {
        if (cancelled) return;
        setLoadError(null);
        setLoadTeams(null);
        receive(p);
      },
      (err: unknown) => {
        if (cancelled) return;
        setLoadError(errorMessage(err));
        setLoadTeams(teamsToChoose(err));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [name, first, receive]);

  const polling = pipeline !== null && needsPolling(pipeline, target);

  useEffect(() => {
    if (!polling) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = Date.now();
    const tick = () => {
      const elapsed = Date.now() - started;
      if (elapsed > POLL_LIMIT_MS) return;
      timer = setTimeout(() => {
        api.getPipeline(address).then(
          (p) => {
            if (cancelled) return;
            receive(p);
            tick();
          },
          () => {
            if (!cancelled) tick();
          },
        );
      }, pollDelay(elapsed));
    };
    tick();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [polling, address, receive]);

  const act = useCallback(
    (action: PipelineAction) => {
      setBusy(action);
      setActionError(null);
      setResetOffer(null);
      api.pipelineAction(address, action).then(
        (p) => {
          setBusy(null);
          setPipeline(p);
          setTarget(p.state === 'failed' ? null : actionTarget(action));
        },
        (err: unknown) => {
          setBusy(null);
          setActionError(errorMessage(err));
        },
      );
    },
    [address],
  );

  const deploy = useCallback(
    (resetState = false) => {
      setBusy('deploy');
      setActionError(null);
      setResetOffer(null);
      // A reset's new run reaches the page as the websocket's `reset` message (noteReset).
      api.deployPipeline(address, resetState).then(
        (p) => {
          setBusy(null);
          setPipeline(p);
        },
        (err: unknown) => {
          setBusy(null);
          const offer = offerFor(err);
          if (offer !== null) setResetOffer(offer);
          else setActionError(errorMessage(err));
        },
      );
    },
    [address],
  );

  const dismissResetOffer = useCallback(() => setResetOffer(null), []);

  const applyState = useCallback((state: PipelineState, error: string | null) => {
    setPipeline((p) => (p ? { ...p, state, error: error ?? '' } : p));
    setTarget((t) => (t !== null && (state === t || state === 'failed') ? null : t));
  }, []);

  const noteStep = useCallback((step: number) => {
    setPipeline((p) => (p && step > p.last_step ? { ...p, last_step: step } : p));
  }, []);

  const noteReset = useCallback((run: number) => {
    setPipeline((p) => (p && run >= p.run ? { ...p, run, last_step: run > p.run ? 0 : p.last_step } : p));
  }, []);

  return {
    pipeline,
    loadError,
    loadTeams,
    ref: address,
    busy,
    actionError,
    act,
    deploy,
    resetOffer,
    dismissResetOffer,
    replace: receive,
    applyState,
    noteStep,
    noteReset,
  };
}
