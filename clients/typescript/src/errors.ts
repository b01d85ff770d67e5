/**
 * Roost's errors as a client sees them: a status code plus a
 * google.rpc.ErrorInfo whose `reason` is the name of a
 * roost.common.v1.ErrorReason value (and whose `metadata` carries facts such
 * as "current_version" or "rule"). The Connect runtime decodes the details
 * from the status (the grpc-status-details-bin trailer in gRPC and gRPC-Web,
 * the "details" of a Connect error), whichever protocol carried them.
 */
import { ConnectError, Code } from "@connectrpc/connect";
import { ErrorInfoSchema, type ErrorInfo } from "./gen/google/rpc/error_details_pb.js";
import { ErrorReason, ErrorReasonSchema } from "./gen/roost/common/v1/common_pb.js";

/** The ErrorInfo of a failed call, if it carries one. */
export function errorInfo(err: unknown): ErrorInfo | undefined {
  if (!(err instanceof ConnectError)) return undefined;
  return err.findDetails(ErrorInfoSchema)[0];
}

/** The ErrorReason of a failed call (UNSPECIFIED when it carries none, or an unknown one). */
export function errorReason(err: unknown): ErrorReason {
  const name = errorInfo(err)?.reason;
  const value = ErrorReasonSchema.values.find((v) => v.name === name);
  return value === undefined ? ErrorReason.UNSPECIFIED : (value.number as ErrorReason);
}

/** The status code of a failed call (Unknown for anything that is not a ConnectError). */
export function errorCode(err: unknown): Code {
  return err instanceof ConnectError ? err.code : Code.Unknown;
}

/**
 * True when the same call may simply be sent again after a pause:
 * UNAVAILABLE (store unreachable, a draining server, a dropped connection) and
 * RESOURCE_EXHAUSTED (a process at one of its caps). An Apply is retried with
 * the same request_id, so a write that did land answers with its first result.
 */
export function isRetryable(err: unknown): boolean {
  const code = errorCode(err);
  return code === Code.Unavailable || code === Code.ResourceExhausted;
}
