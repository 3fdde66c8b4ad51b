import http from '@ohos.net.http';

export { http };
