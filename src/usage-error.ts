// The one class of a usage error: a flag or its value the user must change. The command line prints it
// last, after its usage line and a pointer to `--help`, and exits 2. A leaf, so that verify's option
// checks and the command line throw the same class.
export class UsageError extends Error {
  override name = 'UsageError';
}
