export { DEFAULT_DEBOUNCE_MS, DEFAULT_POLL_MS, FileWatcher, type ChangeListener, type FileWatcherOptions } from './file-watcher.js';
