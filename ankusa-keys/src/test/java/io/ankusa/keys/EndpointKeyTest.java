package io.ankusa.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The {@code ?E} family: round trips, sort order by (ord, sink), refusals of what it is not. */
class EndpointKeyTest {

    @Test
    void keysAndValuesRoundTrip() {
        EndpointKey key = new EndpointKey(Ordinals.MAX, 65_535);
        assertThat(EndpointKey.decode(key.encode())).isEqualTo(key);
        EndpointKey.Value disabled = new EndpointKey.Value(EndpointKey.STATE_DISABLED, EndpointKey.REASON_GONE, 1_767_225_600_000L, 5);
        assertThat(EndpointKey.decodeValue(disabled.encode())).isEqualTo(disabled);
        EndpointKey.Value failing = new EndpointKey.Value(EndpointKey.STATE_ACTIVE, EndpointKey.REASON_NONE, 0, 42);
        assertThat(EndpointKey.decodeValue(failing.encode())).isEqualTo(failing);
    }

    @Test
    void keysSortByTenantThenSinkWithinTheirTenantRange() {
        byte[] a = new EndpointKey(1, 65_535).encode();
        byte[] b = new EndpointKey(2, 0).encode();
        assertThat(Arrays.compareUnsigned(a, b)).isNegative();
        KeySpan tenant = EndpointKey.tenantRange(2);
        assertThat(Arrays.compareUnsigned(tenant.from(), b)).isNotPositive();
        assertThat(Arrays.compareUnsigned(b, tenant.to())).isNegative();
        assertThat(Arrays.compareUnsigned(a, tenant.from())).isNegative();
        assertThat(Arrays.compareUnsigned(EndpointKey.FAMILY.lo(), a)).isNegative();
        assertThat(Arrays.compareUnsigned(new EndpointKey(Ordinals.MAX, 65_535).encode(), EndpointKey.FAMILY.hi())).isNegative();
    }

    @Test
    void whatIsNotAnEndpointKeyOrValueIsRefused() {
        assertThatThrownBy(() -> EndpointKey.decode(EndpointKey.FAMILY.hi())).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> EndpointKey.decode(new byte[] {'E', 0, 0, 0, 0, 0, 1})).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> EndpointKey.decodeValue(new byte[17])).isInstanceOf(KeyFormatException.class);
        byte[] activeWithReason = new EndpointKey.Value(EndpointKey.STATE_DISABLED, EndpointKey.REASON_OPERATOR, 1, 0).encode();
        activeWithReason[0] = EndpointKey.STATE_ACTIVE;
        assertThatThrownBy(() -> EndpointKey.decodeValue(activeWithReason)).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> new EndpointKey.Value(3, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
