/**
 * The operator dashboard: server-rendered pages beside the JSON API, read through the same route
 * handlers, with the browser libraries it serves from the jar and the sampler behind its charts.
 */
package io.ankusa.admin.page;
