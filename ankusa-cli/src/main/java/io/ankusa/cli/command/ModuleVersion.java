package io.ankusa.cli.command;

import picocli.CommandLine;

/** {@code ankusa --version}: the version the module was compiled with. */
final class ModuleVersion implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = ModuleVersion.class.getModule().getDescriptor() == null ? null
                : ModuleVersion.class.getModule().getDescriptor().rawVersion().orElse(null);
        return new String[] {"ankusa " + (version == null ? "(unknown version)" : version)
                + " on Java " + Runtime.version()};
    }
}
