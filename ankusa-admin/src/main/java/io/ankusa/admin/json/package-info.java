/**
 * The admin API's JSON: the queue's and the dispatcher's values as Jackson tree nodes, written
 * field by field (no reflection), every string a JSON string value.
 */
package io.ankusa.admin.json;
