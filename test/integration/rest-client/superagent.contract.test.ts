import { runServiceContract } from '../../contract/service-contract.suite';
import { clientLibrary } from './support/client-libraries';
import { restContractTarget } from './support/rest-contract-target';

runServiceContract(restContractTarget(clientLibrary('superagent')));
