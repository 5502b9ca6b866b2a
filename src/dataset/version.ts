// The shape of a dataset version (`meta.dataset_version`), shared by the release manifests written
// at build and the `dataset_version` parameter read at request time.

/** A dataset version: the release's dataset date and a 12-digit content hash. */
export const VERSION = /^\d{4}-\d{2}-\d{2}\.[0-9a-f]{12}$/;
