/**
 * The admin API's servlet plumbing: request decoding (raw path segments, query, body), the caller
 * from the access policy, CSRF and origin checks, and JSON answers with the security headers.
 */
package io.ankusa.admin.http;
