import { Navigate, useLocation } from "react-router";

/**
 * SPEC section 2 names several paths for the same verification screen. Each screen has one
 * canonical path; the aliases redirect to it, keeping the query string.
 */
function To({ path }: { path: string }) {
  const { search } = useLocation();
  return <Navigate to={`${path}${search}`} replace />;
}

/** /sfyz → /authentication */
export const ToVerification = () => <To path="/authentication" />;
/** /authenticationhigh → /seniorauth */
export const ToAdvanced = () => <To path="/seniorauth" />;
/** /fengxian → /questionnaire */
export const ToQuestionnaire = () => <To path="/questionnaire" />;
/** /xinyongfen → /credit */
export const ToCredit = () => <To path="/credit" />;
