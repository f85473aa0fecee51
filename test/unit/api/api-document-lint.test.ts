import { apiDocument } from '@lib/api-document';
import { Spectral } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';

/**
 * The document lints clean with Spectral's `spectral:oas` rules (as `extends: spectral:oas` in a
 * `.spectral.yaml` gives them): every finding, warnings and hints included, fails the test, so a route
 * without a tag, a tag without a description or a lost `info.contact` cannot ship.
 */
describe('the OpenAPI document, by Spectral', () => {
  it('has no finding of the spectral:oas ruleset', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
    const findings = await spectral.run(JSON.stringify(apiDocument()));
    expect(findings.map(({ code, path, message }) => `${String(code)} at ${path.join('.')}: ${message}`)).toEqual([]);
  });
});
