export { ServerLogBook, SERVER_LOG_LINES } from './server-log-book.js';
export { LOG_FILE_NAME, Logger, type LoggerOptions } from './logger.js';
export { DEFAULT_KEEP, DEFAULT_MAX_BYTES, LogFile, type LogFileOptions } from './log-file.js';
export { toHumanLine, toJsonLine, type LogFields, type LogLevel, type LogRecord } from './log-record.js';
