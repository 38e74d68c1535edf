/**
 * The routes of the admin API and their JSON handlers, independent of the servlet API: the
 * {@code Router} finds a route by method and decoded path segments, each handler turns an
 * {@code ApiRequest} into an {@code ApiResponse} through the node's public {@code Queue},
 * {@code Replayer} and {@code Pipeline} only, and {@code openapi.json} beside them describes them.
 */
package io.ankusa.admin.route;
