export { approvalDetail, decide, howToAllow, patternMatches, permissionKey, type Verdict } from './approval-policy.js';
