export { readTasksFolder, graphTypeOfFolder, type TasksFolder, type TasksFolderGraph } from './read.js';
