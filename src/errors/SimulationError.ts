/** The simulation folders cannot be served (unreadable, duplicate samples, bad side files). */
export class SimulationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimulationError';
  }
}
