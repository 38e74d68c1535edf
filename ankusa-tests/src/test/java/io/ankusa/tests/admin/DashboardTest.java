package io.ankusa.tests.admin;

import static io.ankusa.tests.admin.AdminClient.seg;
import static io.ankusa.tests.admin.AdminNode.OPERATOR;
import static io.ankusa.tests.admin.AdminNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ankusa.api.DeliveryState;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.api.StoredDelivery;
import io.ankusa.api.events.EndpointState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The dashboard in a real headless browser (Debian's chromium) against the own-port server over a
 * seeded node on each backend ({@link AdminNode}): every page with its figures, replay, enable and
 * disable by clicking, hostile producer strings shown as text, and the CSRF refusal of a POST from
 * the page's own context. The rocksdb run writes the screenshots of docs/dashboard.md.
 */
class DashboardTest {

    private static final String SCRIPT = "<script>alert(1)</script>";
    private static final String IMG = "\"><img src=x onerror=alert(1)>";
    private static final String JS = "javascript:alert(1)";
    private static final String BIDI = "\u202Egnp.exe";
    /** A hook id is printable ASCII without spaces or full stops. */
    private static final String HOOK_ID = SCRIPT + "\"><img/src=x/onerror=alert(1)>";

    @TempDir
    Path dir;

    @TempDir
    Path profile;

    @BeforeAll
    static void needsChromium() {
        assumeTrue(Browser.available(), "chromium and chromium-driver are installed (.ci/run installs them)");
    }

    private static Path images() {
        Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
        return root.resolve("docs/images");
    }

    private static StoredDelivery delivery(AdminNode node, String tenant, long seq) {
        return node.fixture.queue().hook(tenant, seq).orElseThrow().deliveries().get(0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("the dashboard shows a tenant's dead letters and replays them")
    void theDashboardShowsATenantsDeadLettersAndReplaysThem(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir); Browser browser = new Browser(node.server.port(), profile)) {
            browser.signIn(OPERATOR);
            browser.open("/tenants/acme");

            assertThat(browser.text("#tenant-id")).isEqualTo("acme");
            assertThat(browser.text("#t-dead")).isEqualTo("2");
            assertThat(browser.text("#t-scheduled")).isEqualTo("1");
            List<WebElement> rows = browser.all("#dead-letters tr.dead-letter");
            assertThat(rows).extracting(r -> r.findElement(By.cssSelector("a.id")).getText())
                    .containsExactlyInAnyOrder("dead-a1", "dead-a2");
            if (backend.equals("rocksdb")) {
                browser.screenshot(images().resolve("dashboard-tenant.png"));
            }
            long seq = node.acmeDead1.seq();
            WebElement row = browser.find("#dead-letters tr[data-seq='" + seq + "']");
            assertThat(row.findElement(By.cssSelector(".state")).getText()).isEqualTo("dead");
            assertThat(delivery(node, "acme", seq).state()).isEqualTo(DeliveryState.DEAD);

            row.findElement(By.cssSelector("button.replay")).click();

            browser.await(d -> row.findElement(By.cssSelector(".state")).getText().equals("due"));
            assertThat(delivery(node, "acme", seq).state()).as("the store holds the delivery due again")
                    .isEqualTo(DeliveryState.DUE);
            assertThat(node.fixture.queue().deadForTenant("acme").dead()).isEqualTo(1);
            browser.open("/tenants/acme");
            assertThat(browser.all("#dead-letters tr.dead-letter")).extracting(r -> r.getAttribute("data-seq"))
                    .containsExactly(String.valueOf(node.acmeDead2.seq()));
            browser.open("/audit");
            assertThat(browser.text("#audit")).contains("replay").contains("acme").as("the session's principal")
                    .contains(node.client.get("/v1/session", OPERATOR).json().path("principal").asText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("every page loads and shows the right figures")
    void everyPageLoadsAndShowsTheRightFigures(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir); Browser browser = new Browser(node.server.port(), profile)) {
            browser.open("/");
            assertThat(browser.url()).as("no page without a principal").isEqualTo("/signin");
            browser.find("#token").sendKeys("not-a-token-of-this-policy");
            browser.find("#signin").click();
            assertThat(browser.text("#signin-message")).isEqualTo("that token is not accepted");

            browser.signIn(VIEWER);
            assertThat(browser.url()).isEqualTo("/");
            assertThat(browser.text("#fig-dead")).isEqualTo("3");
            assertThat(browser.text("#fig-quarantined")).isEqualTo("1");
            assertThat(browser.text("#fig-scheduled")).isEqualTo("1");
            assertThat(browser.text("#fig-tenants")).isEqualTo(String.valueOf(node.fixture.queue().tenantCount()));
            browser.await(d -> browser.find("#charts").getAttribute("data-drawn") != null);
            assertThat(browser.all("#charts canvas")).hasSize(4);
            if (backend.equals("rocksdb")) {
                browser.screenshot(images().resolve("dashboard-overview.png"));
            }

            browser.open("/tenants");
            assertThat(browser.all("#tenants a.id")).extracting(WebElement::getText)
                    .containsExactly("acme", "acme-labs", "globex", "initech", "umbrella");
            browser.open("/tenants?prefix=acme&sort=dead");
            assertThat(browser.all("#tenants a.id")).extracting(WebElement::getText).containsExactly("acme", "acme-labs");

            browser.open("/dead");
            assertThat(browser.all("#dead-tenants a.id")).extracting(WebElement::getText)
                    .containsExactly("acme", "umbrella");
            browser.open("/tenants/umbrella/dead");
            assertThat(browser.all("#dead-letters a.id")).extracting(WebElement::getText).containsExactly("dead-u1");
            assertThat(browser.all("#replay-matching-form")).as("a viewer has no bulk replay").isEmpty();
            assertThat(browser.all("button.replay")).as("a viewer has no replay button").isEmpty();

            browser.open("/tenants/acme/hooks/" + node.acmeDead1.seq());
            assertThat(browser.text("#hook-id")).isEqualTo("dead-a1");
            assertThat(browser.text("#deliveries")).contains("dead").contains("HTTP 410 from the receiver");
            assertThat(browser.all("#attempts li")).hasSize(1);
            assertThat(browser.all("#payload-hidden")).as("the policy shows no payloads").hasSize(1);
            assertThat(browser.all("#payload")).isEmpty();

            browser.open("/endpoints");
            assertThat(browser.all("#endpoints tr.endpoint")).extracting(r -> r.findElement(By.cssSelector("a.id"))
                    .getText() + " " + r.findElement(By.cssSelector(".state")).getText())
                    .containsExactly("initech disabled", "umbrella active");
            browser.open("/quarantine");
            assertThat(browser.text("#quarantine")).contains("globex").contains(String.valueOf(node.globexQuarantined.seq()));
            browser.open("/audit");
            assertThat(browser.pageText()).contains("Audit trail");
            browser.open("/no-such-page");
            assertThat(browser.text("#error-message")).isEqualTo("no such page");
            assertThat(browser.alertOpen()).isFalse();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("an operator enables and disables an endpoint by clicking")
    void anOperatorEnablesAndDisablesAnEndpointByClicking(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir); Browser browser = new Browser(node.server.port(), profile)) {
            browser.signIn(OPERATOR);
            browser.open("/endpoints");
            assertThat(state(node, "initech")).isEqualTo(EndpointState.DISABLED);

            browser.find("#endpoints tr.endpoint button.enable").click();

            browser.await(d -> state(node, "initech") == EndpointState.ACTIVE);
            browser.await(d -> browser.all("#endpoints button.enable").isEmpty());
            assertThat(state(node, "umbrella")).isEqualTo(EndpointState.ACTIVE);
            browser.open("/tenants/umbrella");
            browser.find("#endpoints button.disable").click();
            browser.await(d -> d.switchTo().alert()).accept();
            browser.await(d -> state(node, "umbrella") == EndpointState.DISABLED);
            browser.await(d -> browser.all("#endpoints button.enable").size() == 1);
            assertThat(browser.text("#endpoints .state")).isEqualTo("disabled");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("an operator replays all matching dead letters by clicking, and follows the job")
    void anOperatorReplaysAllMatchingDeadLettersByClicking(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir); Browser browser = new Browser(node.server.port(), profile)) {
            browser.signIn(OPERATOR);
            browser.open("/tenants/acme/dead");
            assertThat(node.fixture.queue().deadForTenant("acme").dead()).isEqualTo(2);

            browser.find("#replay-matching-form button[type=submit]").click();
            browser.await(d -> d.switchTo().alert()).accept();

            browser.await(d -> "done".equals(browser.find("#replay-progress").getAttribute("data-state")));
            assertThat(browser.text("#replay-progress")).contains("replayed 2");
            assertThat(node.fixture.queue().deadForTenant("acme").dead()).as("the store holds no dead letter")
                    .isZero();
            assertThat(node.fixture.queue().deadForTenant("umbrella").dead()).as("another tenant's are left")
                    .isEqualTo(1);
        }
    }

    private static EndpointState state(AdminNode node, String tenant) {
        List<EndpointStatus> endpoints = node.fixture.queue().endpoints(tenant, 10);
        return endpoints.isEmpty() ? EndpointState.ACTIVE : endpoints.get(0).state();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("a hostile hook id is shown as text in the pages")
    void aHostileHookIdIsShownAsTextInThePages(String backend) {
        try (AdminNode node = AdminNode.open(backend, dir, AdminNode.tokens().withPayloads(), n -> n);
                Browser browser = new Browser(node.server.port(), profile)) {
            String tenant = IMG + SCRIPT;
            String text = SCRIPT + IMG + JS + BIDI;
            String payload = text + "A".repeat((1 << 20) - text.getBytes(StandardCharsets.UTF_8).length);
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("x-script", SCRIPT);
            headers.put("x-img", IMG);
            headers.put("x-js", JS);
            Receipt receipt = node.ingest(Hook.builder().id(HOOK_ID).sourceId(JS).tenantId(tenant).headers(headers)
                    .idempotencyKey(BIDI + SCRIPT).payload(payload.getBytes(StandardCharsets.UTF_8)).sinks(0).build());
            browser.signIn(VIEWER);

            browser.open("/tenants");
            assertThat(browser.all("#tenants a.id")).extracting(e -> e.getAttribute("textContent")).containsExactly(tenant);
            browser.find("#tenants a.id").click();
            browser.await(d -> !browser.all("#tenant-id").isEmpty());
            assertThat(browser.text("#tenant-id")).isEqualTo(tenant);
            browser.open("/tenants/" + seg(tenant) + "/hooks/" + receipt.seq());

            assertThat(browser.text("#hook-id")).isEqualTo(HOOK_ID);
            assertThat(browser.text("#hook")).contains(JS).contains(BIDI + SCRIPT).contains(tenant);
            assertThat(browser.all("#headers td")).extracting(e -> e.getAttribute("textContent"))
                    .containsExactly("x-script", SCRIPT, "x-img", IMG, "x-js", JS);
            assertThat(browser.text("#payload")).isEqualTo(payload);
            assertThat(browser.all("script")).as("only the module's own scripts").hasSize(3);
            assertThat(browser.all("img")).isEmpty();
            assertThat(browser.alertOpen()).isFalse();
            assertThat(browser.driver.manage().getCookies()).allSatisfy(c -> {
                assertThat(c.isHttpOnly()).isTrue();
                assertThat(c.getSameSite()).isEqualTo("Strict");
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("a POST without the CSRF token from the page context is refused")
    void aPostWithoutTheCsrfTokenFromThePageContextIsRefused(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir); Browser browser = new Browser(node.server.port(), profile)) {
            browser.signIn(OPERATOR);
            browser.open("/tenants/acme");
            String path = "/v1/tenants/acme/endpoints/0/disable";

            String refused = browser.postFromPage(path, false);

            assertThat(refused).startsWith("403 ").contains("\"error\":\"csrf\"");
            assertThat(node.fixture.queue().endpoints("acme", 10)).as("nothing changed").isEmpty();
            String accepted = browser.postFromPage(path, true);
            assertThat(accepted).startsWith("200 ");
            assertThat(state(node, "acme")).isEqualTo(EndpointState.DISABLED);
        }
    }
}
