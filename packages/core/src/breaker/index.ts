export {
  admit,
  next,
  DEFAULT_BREAKER_POLICY,
  INITIAL_BREAKER_STATE,
  type Admission,
  type BreakerEffect,
  type BreakerEvent,
  type BreakerPolicy,
  type BreakerState,
  type Transition,
} from './breaker-policy.js';
export { offersTools, sameStatus, toStatus, type BreakerStatus } from './breaker-status.js';
export {
  Breaker,
  BREAKER_OPEN,
  type BreakerNotice,
  type BreakerNoticeKind,
  type BreakerOptions,
  type BreakerPermit,
  type BreakerOutcome,
  type BreakerUpdate,
} from './breaker.js';
