// snug inside a worker of the app's own.
import { Snug } from 'snug';
import { dragIntoWall } from './drag.js';

Snug.create().then((snug) => {
  postMessage(dragIntoWall(snug));
  snug.dispose();
});
