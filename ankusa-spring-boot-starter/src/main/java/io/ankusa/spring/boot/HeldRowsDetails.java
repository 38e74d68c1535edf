package io.ankusa.spring.boot;

import io.ankusa.dispatch.report.HeldRows;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The rows the scheduler holds, by reason, as the health details and the actuator endpoint show them. */
final class HeldRowsDetails {

    private HeldRowsDetails() {
    }

    /** {@return one entry per hold reason: tenants, rows, whether the row count is complete, the oldest age} */
    static Map<String, Object> byReason(List<HeldRows> held) {
        Map<String, Object> byReason = new LinkedHashMap<>();
        for (HeldRows h : held) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("tenants", h.tenants());
            entry.put("rows", h.rows());
            entry.put("rowsComplete", h.rowsComplete());
            h.oldestAge().ifPresent(age -> entry.put("oldestAge", age.toString()));
            byReason.put(h.hold().name(), entry);
        }
        return byReason;
    }
}
