// @kit.BasicServicesKit only provides types (BusinessError) to the HAR.
export {}
