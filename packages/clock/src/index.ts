export { systemClock, type Clock, type Timer } from './clock.js';
export { FakeClock } from './fake-clock.js';
export { formatDelay } from './format-delay.js';
