// The dataset views moved to request-time code (src/api/dataset-views.ts); kept for the
// pipeline's import until it calls the answer functions (src/api/answers.ts).
export { datasetViews, readView, type DatasetView } from '../api/dataset-views.ts';
