package io.ankusa.admin.route;

/** What a route does with a request. */
@FunctionalInterface
interface Handler {

    /**
     * Answers {@code request}.
     *
     * @param request the decoded request
     * @return the answer
     * @throws ApiException for an error answer
     */
    ApiResponse handle(ApiRequest request);
}
