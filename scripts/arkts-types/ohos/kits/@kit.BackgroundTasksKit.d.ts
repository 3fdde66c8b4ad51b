import backgroundTaskManager from '@ohos.resourceschedule.backgroundTaskManager';

export { backgroundTaskManager };
