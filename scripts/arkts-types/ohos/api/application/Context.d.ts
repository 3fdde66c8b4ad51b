// application/Context (API 12): the members ArkAgent reads.
import BaseContext from './BaseContext';

export default class Context extends BaseContext {
  cacheDir: string;
  tempDir: string;
  filesDir: string;
  databaseDir: string;
  preferencesDir: string;
  bundleCodeDir: string;
  getApplicationContext(): Context;
}
