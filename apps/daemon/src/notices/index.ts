export { NoticeFeed, type NoticeFeedOptions, type NoticeInput, type NoticeListener } from './notice-feed.js';
