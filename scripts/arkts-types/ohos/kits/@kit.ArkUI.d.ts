import router from '@ohos.router';
import window from '@ohos.window';

export { router, window };
