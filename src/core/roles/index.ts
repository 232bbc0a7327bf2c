export { canShareNode, canMeetOnNode, rolesReached, baseRole, type RoleTable } from './placement.js';
export { mergeRoles, checkRoleShape, type MergedRoles } from './merge.js';
export { checkRoleAssignment, checkTaskConflictsOnNodes, type NodeAssignment, type AssignmentContext } from './assignment.js';
