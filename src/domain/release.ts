// The data release (data/release.yaml): the date the dataset describes.
import { z } from 'zod';
import { isoDate } from './common.ts';

export const releaseFile = z.strictObject({ dataset_date: isoDate });
export type ReleaseFile = z.infer<typeof releaseFile>;
