import hilog from '@ohos.hilog';

export { hilog };
