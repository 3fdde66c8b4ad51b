import { AsyncCallback, BusinessError, Callback } from '@ohos.base';

export { AsyncCallback, BusinessError, Callback };
