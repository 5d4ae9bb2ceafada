export {
  approvalDetail,
  decide,
  denyingRule,
  howToAllow,
  patternMatches,
  permissionKey,
  promptPermissionKey,
  refuseIfDenied,
  resourcePermissionKey,
  type Verdict,
} from './approval-policy.js';
