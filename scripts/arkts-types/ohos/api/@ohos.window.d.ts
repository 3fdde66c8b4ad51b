// @ohos.window (API 12): the WindowStage members an ability uses to show its first page.
import { AsyncCallback } from './@ohos.base';

declare namespace window {
  interface WindowStage {
    loadContent(path: string, callback: AsyncCallback<void>): void;
    loadContent(path: string): Promise<void>;
  }
}

export default window;
