import asset from '@ohos.security.asset';

export { asset };
