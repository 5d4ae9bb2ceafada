export { systemClock, type Clock, type Timer, type TimerOptions } from './clock.js';
export { FakeClock } from './fake-clock.js';
export { formatDelay } from './format-delay.js';
