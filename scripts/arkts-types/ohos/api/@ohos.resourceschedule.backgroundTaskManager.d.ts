// @ohos.resourceschedule.backgroundTaskManager (API 12): transient tasks, i.e. a short delay of the
// suspension of an app that went to the background. Signatures and @throws tags as in the SDK
// (interface_sdk-js 5.0.0). What the service does (background_task_mgr 5.0.0):
// - requestSuspendDelay throws synchronously (napi_throw_error: the error's `code` is a STRING, e.g.
//   "9900002") and otherwise returns { requestId, actualDelayTime }; ids count up from 1. At most 3
//   requests per app at a time; a request more than 5 s after the app entered the background, or with
//   less than 10 s of the daily 10-minute quota left, fails with 9900002. actualDelayTime is 3 minutes
//   (1 in low-power mode), capped by the quota left.
// - The time is only counted while the app is in the background (or the screen is off). The callback
//   fires 6 s before the delay runs out; a delay not cancelled 6 s after that gets a backgrounded app
//   killed (watchdog.cpp).
// - cancelSuspendDelay throws 401 for an id that is not a positive integer and 9900001 for an id that
//   is not (or no longer) held; getRemainingDelayTime rejects 9900001 the same way (a numeric code).
import { AsyncCallback, Callback } from './@ohos.base';

declare namespace backgroundTaskManager {
  interface DelaySuspendInfo {
    requestId: number;
    actualDelayTime: number;
  }

  /**
   * @param { number } requestId - The identifier of the delay request.
   * @throws { BusinessError } 401 - Parameter error. Possible causes: 1. Mandatory parameters are left unspecified;
   * <br> 2. Incorrect parameters types; 3. Parameter verification failed.
   * @throws { BusinessError } 9800001 - Memory operation failed.
   * @throws { BusinessError } 9800002 - Parcel operation failed.
   * @throws { BusinessError } 9800003 - Internal transaction failed.
   * @throws { BusinessError } 9800004 - System service operation failed.
   * @throws { BusinessError } 9900001 - Caller information verification failed for a transient task.
   * @throws { BusinessError } 9900002 - Transient task verification failed.
   */
  function cancelSuspendDelay(requestId: number): void;

  /**
   * @param { number } requestId - The identifier of the delay request.
   * @param { AsyncCallback<number> } callback - The callback of the remaining delay time.
   * @throws { BusinessError } 401 - Parameter error. Possible causes: 1. Mandatory parameters are left unspecified;
   * <br> 2. Incorrect parameters types; 3. Parameter verification failed.
   * @throws { BusinessError } 9800001 - Memory operation failed.
   * @throws { BusinessError } 9800002 - Parcel operation failed.
   * @throws { BusinessError } 9800003 - Internal transaction failed.
   * @throws { BusinessError } 9800004 - System service operation failed.
   * @throws { BusinessError } 9900001 - Caller information verification failed for a transient task.
   * @throws { BusinessError } 9900002 - Transient task verification failed.
   */
  function getRemainingDelayTime(requestId: number, callback: AsyncCallback<number>): void;

  /**
   * @param { number } requestId - The identifier of the delay request.
   * @returns { Promise<number> } The promise returns the remaining delay time.
   * @throws { BusinessError } 401 - Parameter error. Possible causes: 1. Mandatory parameters are left unspecified;
   * <br> 2. Incorrect parameters types; 3. Parameter verification failed.
   * @throws { BusinessError } 9800001 - Memory operation failed.
   * @throws { BusinessError } 9800002 - Parcel operation failed.
   * @throws { BusinessError } 9800003 - Internal transaction failed.
   * @throws { BusinessError } 9800004 - System service operation failed.
   * @throws { BusinessError } 9900001 - Caller information verification failed for a transient task.
   * @throws { BusinessError } 9900002 - Transient task verification failed.
   */
  function getRemainingDelayTime(requestId: number): Promise<number>;

  /**
   * @param { string } reason - Indicates the reason for delayed transition to the suspended state.
   * @param { Callback<void> } callback - The callback delay time expired.
   * @returns { DelaySuspendInfo } Info of delay request.
   * @throws { BusinessError } 401 - Parameter error. Possible causes: 1. Mandatory parameters are left unspecified;
   * <br> 2. Incorrect parameters types.
   * @throws { BusinessError } 9800001 - Memory operation failed.
   * @throws { BusinessError } 9800002 - Parcel operation failed.
   * @throws { BusinessError } 9800003 - Internal transaction failed.
   * @throws { BusinessError } 9800004 - System service operation failed.
   * @throws { BusinessError } 9900001 - Caller information verification failed for a transient task.
   * @throws { BusinessError } 9900002 - Transient task verification failed.
   */
  function requestSuspendDelay(reason: string, callback: Callback<void>): DelaySuspendInfo;
}

export default backgroundTaskManager;
