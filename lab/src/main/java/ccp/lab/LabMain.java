package ccp.lab;

import ccp.platform.cli.Cli;

/**
 * The lab's own entry point, with the contract of every command line here ({@link Cli}): {@link DosInstancias} starts
 * its child JVM through it, so the lab needs no jar that bundles it.
 */
public final class LabMain {

  private LabMain() {}

  public static void main(String[] args) {
    Cli.main(args, new Lab(), new LabInstancia());
  }
}
