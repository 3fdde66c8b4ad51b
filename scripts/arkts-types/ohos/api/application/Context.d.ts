// application/Context (API 12): the members ArkAgent reads.
import BaseContext from './BaseContext';
import resourceManager from '../@ohos.resourceManager';

export default class Context extends BaseContext {
  cacheDir: string;
  tempDir: string;
  filesDir: string;
  databaseDir: string;
  preferencesDir: string;
  resourceManager: resourceManager.ResourceManager;
  bundleCodeDir: string;
  getApplicationContext(): Context;
}
