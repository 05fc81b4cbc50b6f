/** The `test` tool's refusals: worded for the model where they are thrown. */
import { ModelFacingError } from '../platform/modelFacingError';

/** The tests cannot run as asked (no runner fits, a runner not supported yet, a name read as an option). */
export class TestRefusal extends ModelFacingError {
  constructor(message: string) {
    super(message);
    this.name = 'TestRefusal';
  }
}
