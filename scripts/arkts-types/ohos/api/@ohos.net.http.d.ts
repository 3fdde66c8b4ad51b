// @ohos.net.http (API 12). requestInStream resolves with the response code once the transfer
// ends; headers arrive first through 'headersReceive', the body through 'dataReceive'
// (ArrayBuffer pieces, split anywhere) and 'dataEnd'. One HttpRequest per request; destroy() aborts.
import { AsyncCallback, Callback } from './@ohos.base';

declare namespace http {
  function createHttp(): HttpRequest;

  enum RequestMethod {
    OPTIONS = 'OPTIONS',
    GET = 'GET',
    HEAD = 'HEAD',
    POST = 'POST',
    PUT = 'PUT',
    DELETE = 'DELETE',
    TRACE = 'TRACE',
    CONNECT = 'CONNECT'
  }

  enum HttpDataType {
    STRING = 0,
    OBJECT = 1,
    ARRAY_BUFFER = 2
  }

  enum ResponseCode {
    OK = 200
  }

  interface HttpRequestOptions {
    method?: RequestMethod;
    extraData?: string | Object | ArrayBuffer;
    expectDataType?: HttpDataType;
    usingCache?: boolean;
    priority?: number;
    header?: Object;
    readTimeout?: number;
    connectTimeout?: number;
  }

  interface DataReceiveProgressInfo {
    receiveSize: number;
    totalSize: number;
  }

  interface HttpResponse {
    result: string | Object | ArrayBuffer;
    resultType: HttpDataType;
    responseCode: ResponseCode | number;
    header: Object;
  }

  interface HttpRequest {
    request(url: string, options?: HttpRequestOptions): Promise<HttpResponse>;
    requestInStream(url: string, options?: HttpRequestOptions): Promise<number>;
    requestInStream(url: string, options: HttpRequestOptions, callback: AsyncCallback<number>): void;
    destroy(): void;
    on(type: 'headersReceive', callback: Callback<Object>): void;
    off(type: 'headersReceive', callback?: Callback<Object>): void;
    on(type: 'dataReceive', callback: Callback<ArrayBuffer>): void;
    off(type: 'dataReceive', callback?: Callback<ArrayBuffer>): void;
    on(type: 'dataEnd', callback: Callback<void>): void;
    off(type: 'dataEnd', callback?: Callback<void>): void;
    on(type: 'dataReceiveProgress', callback: Callback<DataReceiveProgressInfo>): void;
    off(type: 'dataReceiveProgress', callback?: Callback<DataReceiveProgressInfo>): void;
  }
}

export default http;
