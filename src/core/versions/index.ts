export {
  parseReleaseVersion,
  compareReleaseVersions,
  compareNumbers,
  sortReleaseVersions,
  type ReleaseVersion,
  type BareNumberMeaning,
} from './release-version.js';
export { parseConstraint, satisfies, type VersionConstraint, type ConstraintClause, type ConstraintOperator, type ConstraintParse } from './constraint.js';
export { selectBestFit, targetVersion, isVersioned, type ReleaseTarget, type BestFitResult, type VersionedRecordProblem } from './best-fit.js';
