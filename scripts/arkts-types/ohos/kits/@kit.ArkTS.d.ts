import util from '@ohos.util';

export { util };
